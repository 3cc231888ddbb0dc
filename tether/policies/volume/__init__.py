"""Policy rules of the volume API (Cinder's names and defaults)."""
