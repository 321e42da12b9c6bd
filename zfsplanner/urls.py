from allauth.account.decorators import secure_admin_login
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from .accounts import views as accounts_views
from .web.views import healthz

# The admin's log-in goes through the site's log-in page, with its limit on failed attempts.
admin.site.login = secure_admin_login(admin.site.login)  # type: ignore[method-assign]

# JSON errors for JSON clients, pages for browsers; 503 + Retry-After when the database is down.
handler400 = "zfsplanner.web.errors.bad_request"
handler403 = "zfsplanner.web.errors.permission_denied"
handler404 = "zfsplanner.web.errors.page_not_found"
handler500 = "zfsplanner.web.errors.server_error"

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    # allauth's sign-up, with a limit per client address (THROTTLE_SIGNUP); the rest is allauth's own.
    path("accounts/signup/", accounts_views.signup, name="account_signup"),
    path("accounts/", include("allauth.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves Swagger UI's start-up script as a file: no inline script (CSP).
    path(
        "api/docs/",
        SpectacularSwaggerSplitView.as_view(url_name="schema", template_name="api/swagger_ui.html"),
        name="api-docs",
    ),
    path("api/", include("zfsplanner.accounts.api.urls")),
    path("api/", include("zfsplanner.compression.api.urls")),
    path("api/", include("zfsplanner.plans.api.urls")),
    path("api/", include("benchmarks.api.urls")),
    path("api/", include("zfsplanner.imports.api.urls")),
    path("benchmarks/", include("benchmarks.urls")),
    path("", include("zfsplanner.accounts.urls")),
    path("compression/", include("zfsplanner.compression.urls")),
    path("", include("zfsplanner.plans.urls")),
    path("", include("zfsplanner.imports.urls")),
]
