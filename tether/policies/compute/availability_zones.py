"""Policy rules of the compute API: availability_zones (being written)."""

rules = []


def list_rules():
    return rules
