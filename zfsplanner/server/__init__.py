"""Running the app as a service: the build digest, process tuning, gunicorn's hooks and the nginx site."""
