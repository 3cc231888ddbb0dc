"""The HTTP framework shared by the volume and compute APIs."""
