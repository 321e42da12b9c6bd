from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from .middleware import health


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness for the container healthcheck: the app answers and the database responds (else 503).

    ``HealthzMiddleware`` answers this URL before host checks and the TLS redirect; this view
    is the same answer for a stack without that middleware.
    """
    return health()
