import os

from django.core.wsgi import get_wsgi_application

from zfsplanner.runtime import tune_gc

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zfsplanner.settings")
application = get_wsgi_application()
tune_gc()  # after the application is loaded: see zfsplanner/runtime.py
