"""Volume drivers."""
