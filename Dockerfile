FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt
COPY . .
RUN DEBUG=false SECRET_KEY=build-only ALLOWED_HOSTS=localhost python manage.py collectstatic --noinput
RUN useradd --create-home app && mkdir -p /data/media && chown -R app /data /app
USER app
EXPOSE 8000
CMD ["gunicorn", "zfsplanner.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3"]
