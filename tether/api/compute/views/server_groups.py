"""Server groups as JSON, per microversion (Nova's fields)."""

from tether.api.compute import versions
from tether.api import microversion


class ServerGroupView:
    """``project_id`` and ``user_id`` from 2.13; ``policy`` and ``rules``
    instead of ``policies`` and the empty ``metadata`` from 2.64."""

    def __init__(self, req):
        self.with_owner = microversion.at_least(req,
                                                versions.SERVER_GROUP_OWNER)
        self.with_policy = microversion.at_least(
            req, versions.SERVER_GROUP_POLICY)

    def show(self, group):
        out = {'id': group.uuid, 'name': group.name,
               'members': list(group.members)}
        if self.with_policy:
            out['policy'] = group.policy
            out['rules'] = dict(group.rules)
        else:
            out['policies'] = [group.policy]
            out['metadata'] = {}
        if self.with_owner:
            out['project_id'] = group.project_id
            out['user_id'] = group.user_id
        return out
