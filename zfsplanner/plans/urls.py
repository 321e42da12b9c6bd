from django.urls import path

from . import views

app_name = "plans"

urlpatterns = [
    path("", views.home, name="home"),
    path("designs/new/", views.design_new, name="design-new"),
    path("designs/import/", views.design_import, name="design-import"),
    path("designs/<int:pk>/", views.design_detail, name="design-detail"),
    path("designs/<int:pk>/edit/", views.design_edit, name="design-edit"),
    path("designs/<int:pk>/delete/", views.design_delete, name="design-delete"),
    path("designs/<int:pk>/export/", views.design_export, name="design-export"),
    path("designs/<int:pk>/charts/capacity/", views.chart_capacity, name="chart-capacity"),
    path("designs/<int:pk>/charts/efficiency/", views.chart_efficiency, name="chart-efficiency"),
]
