"""Policy rules of the compute API: instance_actions (being written)."""

rules = []


def list_rules():
    return rules
