from django.urls import path

from . import views

app_name = "compression-api"

urlpatterns = [
    path("compression/measure/", views.MeasureView.as_view(), name="measure"),
    path("compression/samples/", views.SampleListView.as_view(), name="sample-list"),
    path("compression/samples/<int:pk>/", views.SampleDetailView.as_view(), name="sample-detail"),
]
