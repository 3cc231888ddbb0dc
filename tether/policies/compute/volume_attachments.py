"""Policy rules of the compute API: volume_attachments (being written)."""

rules = []


def list_rules():
    return rules
