from django.urls import path

from . import advisor_views, designer_views, share_views, views

app_name = "plans"

urlpatterns = [
    path("", views.home, name="home"),
    path("designs/new/", views.design_new, name="design-new"),
    path("designs/import/", views.design_import, name="design-import"),
    path("designs/compare/", designer_views.design_compare, name="design-compare"),
    path("designs/compare/chart/", designer_views.chart_compare, name="chart-compare"),
    path("designs/catalog-options/", designer_views.catalog_options, name="catalog-options"),
    path("designs/<int:pk>/", views.design_detail, name="design-detail"),
    path("designs/<int:pk>/designer/", designer_views.designer, name="designer"),
    path("designs/<int:pk>/designer/pool/", designer_views.designer_pool, name="designer-pool"),
    path("designs/<int:pk>/designer/vdev/", designer_views.designer_vdev, name="designer-vdev"),
    path("designs/<int:pk>/designer/dataset/", designer_views.designer_dataset, name="designer-dataset"),
    path("designs/<int:pk>/designer/row/", designer_views.designer_op, name="designer-op"),
    path("designs/<int:pk>/fix/", designer_views.design_fix_apply, name="design-fix"),
    path("designs/<int:pk>/undo/", designer_views.design_undo, name="design-undo"),
    path("designs/<int:pk>/redo/", designer_views.design_redo, name="design-redo"),
    path("designs/<int:pk>/duplicate/", designer_views.design_duplicate, name="design-duplicate"),
    path("designs/<int:pk>/charts/breakdown/", designer_views.chart_breakdown, name="chart-breakdown"),
    path("designs/<int:pk>/edit/", views.design_edit, name="design-edit"),
    path("designs/<int:pk>/delete/", views.design_delete, name="design-delete"),
    path("designs/<int:pk>/export/", views.design_export, name="design-export"),
    path("designs/<int:pk>/charts/capacity/", views.chart_capacity, name="chart-capacity"),
    path("designs/<int:pk>/charts/special/<int:index>/", advisor_views.chart_special, name="chart-special"),
    path("designs/<int:pk>/charts/measured/", advisor_views.chart_measured, name="chart-measured"),
    path("advisor/", advisor_views.advisor, name="advisor"),
    path("advisor/create/", advisor_views.advisor_create, name="advisor-create"),
    path("designs/<int:pk>/charts/efficiency/", views.chart_efficiency, name="chart-efficiency"),
    path("designs/<int:pk>/measure/", views.design_measure, name="design-measure"),
    path("designs/<int:pk>/use-ratio/", views.design_use_ratio, name="design-use-ratio"),
    path("designs/<int:pk>/share-links/", share_views.share_link_create, name="share-link-create"),
    path("designs/<int:pk>/share-links/<int:link_id>/revoke/", share_views.share_link_revoke, name="share-link-revoke"),
    path("share/<str:token>/", share_views.share_detail, name="share-detail"),
    path("share/<str:token>/export/", share_views.share_export, name="share-export"),
    path("share/<str:token>/charts/capacity/", share_views.share_chart_capacity, name="share-chart-capacity"),
    path(
        "share/<str:token>/charts/special/<int:index>/",
        advisor_views.share_chart_special,
        name="share-chart-special",
    ),
    path("share/<str:token>/charts/measured/", advisor_views.share_chart_measured, name="share-chart-measured"),
    path("share/<str:token>/charts/efficiency/", share_views.share_chart_efficiency, name="share-chart-efficiency"),
    path("share/<str:token>/charts/breakdown/", share_views.share_chart_breakdown, name="share-chart-breakdown"),
]
