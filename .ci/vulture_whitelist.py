"""Names vulture reports that frameworks pass by signature (DRF renderers and parsers, Django
signal receivers and upload handlers, Celery signals): read by the framework, not by our code.
Vulture counts a name as used when it appears here; this file is never imported."""
# ruff: noqa: B018, F821

accepted_media_type  # DRF BaseRenderer.render
renderer_context  # DRF BaseRenderer.render
media_type  # DRF BaseParser.parse
sender  # Django and Celery signal receivers
boundary  # Django FileUploadHandler.handle_raw_input
input_data  # Django FileUploadHandler.handle_raw_input
dataset_type  # core.properties.default(): the signature its callers share
