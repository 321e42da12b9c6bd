"""The estimate of a design: assembled in ``build``, typed and serialized in ``figures``."""

from .build import dataset_usages, estimate, estimate_document
from .figures import Estimate

__all__ = ["Estimate", "dataset_usages", "estimate", "estimate_document"]
