"""A server's shares as JSON (2.97)."""

from tether.policies.compute import server_shares as policy


class ServerShareView:
    def __init__(self, req):
        self.context = req.context

    def _detailed(self, instance):
        return self.context.can(policy.SHOW_EXPORT_LOCATION,
                                {'project_id': instance.project_id},
                                fatal=False)

    @staticmethod
    def summary(mapping):
        return {'share_id': mapping.share_id, 'status': mapping.status,
                'tag': mapping.tag}

    def item(self, instance, mapping):
        """One share; where the rule allows (admins), its attachment's
        ID and export location too."""
        out = self.summary(mapping)
        if self._detailed(instance):
            out['uuid'] = mapping.uuid
            out['export_location'] = mapping.export_location
        return out
