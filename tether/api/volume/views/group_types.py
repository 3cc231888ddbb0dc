"""Group types as JSON: their group specs as policy allows."""

from tether.policies.volume import group_types as policy


class GroupTypeView:
    """Serialize group types; the policy is checked once."""

    def __init__(self, req):
        self.show_specs = req.context.can(policy.SPECS_ATTRIBUTE,
                                          fatal=False)

    def show(self, group_type):
        d = {'id': group_type.id, 'name': group_type.name,
             'description': group_type.description,
             'is_public': group_type.is_public}
        if self.show_specs:
            d['group_specs'] = dict(group_type.group_specs)
        return d
