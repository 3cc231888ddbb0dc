"""Flavors as JSON, per microversion."""

from urllib import parse

from tether.api.compute import versions
from tether.api import microversion
from tether.policies.compute import flavors as policy

EPHEMERAL = 'OS-FLV-EXT-DATA:ephemeral'
DISABLED = 'OS-FLV-DISABLED:disabled'
IS_PUBLIC = 'os-flavor-access:is_public'


class FlavorView:
    """Flavors as JSON at the request's microversion."""

    def __init__(self, req):
        ctx = req.context
        self.req = req
        self.with_description = microversion.at_least(
            req, versions.FLAVOR_DESCRIPTION)
        self.swap_as_int = microversion.at_least(req, versions.STRICT_QUERY)
        self.with_specs = (
            microversion.at_least(req, versions.FLAVOR_EXTRA_SPECS) and
            ctx.can(policy.EXTRA_SPECS_INDEX, {'project_id': ctx.project_id},
                    fatal=False))

    def links(self, flavorid):
        # The project is in the links when it was in the URL (Nova).
        project = self.req.urlvars.get('project_id')
        path = '%s/flavors/%s' % ('/' + project if project else '',
                                  parse.quote(flavorid, safe=''))
        root = self.req.application_url
        return [{'rel': 'self', 'href': versions.endpoint(self.req) + path},
                {'rel': 'bookmark', 'href': root + path}]

    def basic(self, flavor):
        out = {'id': flavor.flavorid, 'name': flavor.name,
               'links': self.links(flavor.flavorid)}
        if self.with_description:
            out['description'] = flavor.description
        return out

    def detail(self, flavor):
        out = self.basic(flavor)
        out.update({
            'ram': flavor.memory_mb,
            'vcpus': flavor.vcpus,
            'disk': flavor.root_gb,
            EPHEMERAL: flavor.ephemeral_gb,
            DISABLED: flavor.disabled,
            # Before 2.75 no swap is "", as Nova has it.
            'swap': flavor.swap if flavor.swap or self.swap_as_int else '',
            'rxtx_factor': flavor.rxtx_factor,
            IS_PUBLIC: flavor.is_public,
        })
        if self.with_specs:
            out['extra_specs'] = flavor.extra_specs
        return out
