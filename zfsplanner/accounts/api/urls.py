from django.urls import path
from rest_framework.routers import SimpleRouter

from . import views

app_name = "accounts-api"

router = SimpleRouter()
router.register("teams", views.TeamViewSet, basename="team")
router.register("auth/tokens", views.ApiTokenViewSet, basename="token")

urlpatterns = [
    path("auth/token/", views.TokenObtainView.as_view(), name="token-obtain"),
    path("auth/me/", views.ProfileView.as_view(), name="me"),
    path("invitations/accept/", views.InvitationAcceptView.as_view(), name="invitation-accept"),
    *router.urls,
]
