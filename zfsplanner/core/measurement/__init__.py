"""What a measured benchmark run is worth: the validity checks of :mod:`.validity`."""
