from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from . import views

app_name = "accounts"
urlpatterns = [
    path("teams/", views.team_list, name="team-list"),
    path("teams/new/", views.team_create, name="team-create"),
    path("teams/<slug:slug>/", views.team_detail, name="team-detail"),
    path("teams/<slug:slug>/members/", views.member_change, name="member-change"),
    path(
        "accounts/password/",
        auth_views.PasswordChangeView.as_view(
            template_name="accounts/password_change.html", success_url=reverse_lazy("accounts:password-changed")
        ),
        name="password-change",
    ),
    path(
        "accounts/password/done/",
        auth_views.PasswordChangeDoneView.as_view(template_name="accounts/password_changed.html"),
        name="password-changed",
    ),
]
