"""Policy rules of the compute API: server_external_events (being written)."""

rules = []


def list_rules():
    return rules
