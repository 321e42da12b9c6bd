from django.urls import path

from . import views

app_name = "compression"

urlpatterns = [
    path("", views.sample_list, name="sample-list"),
    path("samples/<int:pk>/", views.sample_detail, name="sample-detail"),
    path("samples/<int:pk>/delete/", views.sample_delete, name="sample-delete"),
]
