from django.urls import path

from . import views

app_name = "accounts"
urlpatterns = [
    path("teams/", views.team_list, name="team-list"),
    path("teams/new/", views.team_create, name="team-create"),
    path("teams/<slug:slug>/", views.team_detail, name="team-detail"),
    path("teams/<slug:slug>/members/", views.member_change, name="member-change"),
    path("teams/<slug:slug>/leave/", views.team_leave, name="team-leave"),
    path("teams/<slug:slug>/invitations/", views.invitation_create, name="invitation-create"),
    path("teams/<slug:slug>/invitations/<int:pk>/revoke/", views.invitation_revoke, name="invitation-revoke"),
    path("invitations/<str:key>/", views.invitation_accept, name="invitation-accept"),
    path("accounts/profile/", views.profile, name="profile"),
    path("accounts/profile/tokens/", views.token_create, name="token-create"),
    path("accounts/profile/tokens/<int:pk>/revoke/", views.token_revoke, name="token-revoke"),
]
