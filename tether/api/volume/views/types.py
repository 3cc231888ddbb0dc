"""Volume types as JSON: their extra specs as policy allows."""

from tether.policies.volume import type_access as access_policy
from tether.policies.volume import type_extra_specs as specs_policy
from tether.policies.volume import types as policy
from tether.volume.api import types as volume_types

IS_PUBLIC = 'os-volume-type-access:is_public'


class TypeView:
    """Serialize volume types; the policy checks are made once."""

    def __init__(self, req):
        ctx = req.context
        self.show_specs = ctx.can(policy.EXTRA_SPECS_ATTRIBUTE, fatal=False)
        self.all_specs = ctx.can(specs_policy.READ_SENSITIVE, fatal=False)
        self.show_qos = ctx.can(policy.QOS_SPECS_ID_ATTRIBUTE, fatal=False)
        self.show_access = ctx.can(access_policy.IS_PUBLIC_ATTRIBUTE,
                                   fatal=False)

    def specs(self, extra_specs):
        if self.all_specs:
            return dict(extra_specs)
        return volume_types.user_visible(extra_specs)

    def show(self, vtype, qos=True, access=True):
        """The type; as Cinder answers a create (``qos`` false: no
        qos_specs_id) and an update (neither qos_specs_id nor the type
        access extension's ``os-volume-type-access:is_public``), which
        Tempest's schemas of those answers refuse. The extension's
        is_public is for whoever its policy allows (members, as in
        Cinder)."""
        d = {'id': vtype.id, 'name': vtype.name,
             'description': vtype.description, 'is_public': vtype.is_public}
        if access and self.show_access:
            d[IS_PUBLIC] = vtype.is_public
        if self.show_specs:
            d['extra_specs'] = self.specs(vtype.extra_specs)
        if qos and self.show_qos:
            d['qos_specs_id'] = vtype.qos_specs_id
        return d
