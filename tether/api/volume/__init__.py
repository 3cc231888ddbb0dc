"""The Block Storage API v3 (Cinder-compatible)."""
