from allauth.account.decorators import secure_admin_login
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from .views import healthz

# The admin's log-in goes through the site's log-in page, with its limit on failed attempts.
admin.site.login = secure_admin_login(admin.site.login)  # type: ignore[method-assign]

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api/", include("zfsplanner.accounts.api.urls")),
    path("api/", include("zfsplanner.plans.api.urls")),
    path("api/", include("benchmarks.api.urls")),
    path("benchmarks/", include("benchmarks.urls")),
    path("", include("zfsplanner.accounts.urls")),
    path("", include("zfsplanner.plans.urls")),
]
