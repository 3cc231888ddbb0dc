"""Request context shared by the API, the managers and RPC."""

from oslo_config import cfg
from oslo_context import context as o_context
from oslo_db.sqlalchemy import enginefacade

from tether import exception
from tether.policies import enforcer

CONF = cfg.CONF


@enginefacade.transaction_context_provider
class RequestContext(o_context.RequestContext):
    """The caller of one request: who, for which project, with what roles."""

    def __init__(self, *args, service_roles=None, service_catalog=None,
                 **kwargs):
        super().__init__(*args, **kwargs)
        self.service_roles = service_roles or []
        # The caller's Keystone catalog (v2 format, from X-Service-Catalog):
        # where the other service's API is for this caller's token.
        self.service_catalog = service_catalog or []
        if self.is_admin is None or not self.is_admin:
            self.is_admin = 'admin' in (r.lower() for r in self.roles)

    def to_dict(self):
        d = super().to_dict()
        d['service_roles'] = self.service_roles
        # Sent over RPC too, as Nova sends it to its compute hosts: a
        # manager acting with the caller's token (tether-compute makes
        # the volume of a server booted from an image) must call the
        # endpoint of the caller's catalog, whose URL names the caller's
        # project where the volume API's does, not its own. Only the
        # entries of the APIs tether calls.
        d['service_catalog'] = _peer_entries(self.service_catalog)
        return d

    @classmethod
    def from_dict(cls, values, **kwargs):
        kwargs.setdefault('service_roles', values.get('service_roles'))
        kwargs.setdefault('service_catalog', values.get('service_catalog'))
        return super().from_dict(values, **kwargs)

    @property
    def project_scope(self):
        """The project whose resources this caller may see: None for an
        administrator, who sees every project's."""
        return None if self.is_admin else self.project_id

    def list_scope(self, all_projects=False, project_id=None):
        """The project a list is confined to: the caller's own, unless an
        administrator asks for every project's (``all_projects``; None) or
        for one project's (``all_projects`` and ``project_id``)."""
        if self.is_admin and all_projects:
            return project_id
        return self.project_id

    @property
    def is_service(self):
        """Whether another OpenStack service calls: the request carries a
        service token with one of the roles of ``[keystone_authtoken]
        service_token_roles`` (``service`` where keystonemiddleware is
        not loaded: noauth)."""
        try:
            roles = CONF.keystone_authtoken.service_token_roles
        except (cfg.NoSuchOptError, cfg.NoSuchGroupError):
            roles = ['service']
        return bool(set(roles) & set(self.service_roles or ()))

    def can(self, action, target=None, fatal=True):
        """Check ``action`` against policy; raise PolicyNotAuthorized."""
        if target is None:
            target = {'project_id': self.project_id, 'user_id': self.user_id}
        allowed = enforcer.authorize(self, action, target)
        if not allowed and fatal:
            raise exception.PolicyNotAuthorized(action=action)
        return allowed

    def elevated(self):
        ctx = self.from_dict(self.to_dict())
        ctx.is_admin = True
        if 'admin' not in ctx.roles:
            ctx.roles = list(ctx.roles) + ['admin']
        return ctx


# The groups of the APIs the services call (tether.clients.Peer): each
# names its catalog type in catalog_info.
PEER_GROUPS = ('volume', 'compute', 'image', 'share')


def _peer_entries(catalog):
    """The entries of ``catalog`` of the service types tether calls."""
    types = set()
    for group in PEER_GROUPS:
        try:
            types.add(CONF[group].catalog_info)
        except (cfg.NoSuchOptError, cfg.NoSuchGroupError):
            continue
    return [entry for entry in catalog or ()
            if isinstance(entry, dict) and entry.get('type') in types]


def get_admin_context():
    return RequestContext(user_id=None, project_id=None, is_admin=True,
                          roles=['admin'], overwrite=False)
