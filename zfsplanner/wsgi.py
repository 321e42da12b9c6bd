import os

from django.core.wsgi import get_wsgi_application

from zfsplanner.server.runtime import tune_gc

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zfsplanner.settings")
application = get_wsgi_application()
tune_gc()  # after the application is loaded: see zfsplanner/server/runtime.py
