"""The integration deployment's Keystone: who is in it, and how clients
log in (a mixin of deployment.Deployment).

Keystone holds (besides the ``admin`` of ``keystone-manage bootstrap``):

========== ========= ====================================================
user       project   roles
========== ========= ====================================================
tether     service   admin, service (tether's services call each other
                     and Glance as it)
glance     service   service (Glance's auth_token validates tokens as it)
manila     service   admin, service (Manila's auth_token, and its share
                     types; tools/manila_ceph/keystone.py)
member     demo      member (implies reader)
reader     demo      reader
alt        alt       member
========== ========= ====================================================

and the catalog: ``block-storage`` and ``volumev3`` (the volume API, with
the project in the URL), ``compute``, ``image`` (Glance's root:
clients find its /v2 by version discovery) and ``sharev2`` (Manila's
/v2), in RegionOne.
"""

import yaml

from integration import processes
from tether.cmd.keystone import register

REGION = 'RegionOne'

# user: (project, roles)
USERS = {
    # As doc/source/operator-guide.rst says: the managers act on the
    # volumes, attachments and servers of every project (admin), and send
    # the calls only another service may send (service).
    'tether': ('service', ['admin', 'service']),
    'member': ('demo', ['member']),
    'reader': ('demo', ['reader']),
    'alt': ('alt', ['member']),
    # Keystone lets a token be validated by a holder of the service role.
    'glance': ('service', ['service']),
}


class IdentityMixin:
    """The users, projects, roles and catalog the Deployment registers in
    its Keystone, and its clients: clouds.yaml, openstacksdk connections,
    the ``openstack`` CLI's environment. They use the Deployment's
    ``keystone``, ``glance``, ``tag``, ``env``, ports, ``users``,
    ``passwords``, ``project_ids`` and ``clouds_yaml``."""

    def _register(self):
        """Projects, users, roles and the catalog, with openstacksdk as the
        bootstrap admin (tether.cmd.keystone.register, as tether-aio
        --keystone registers its own)."""
        conn = self.connection('admin')
        volume_url = 'http://127.0.0.1:%d/v3/%%(project_id)s' % (
            self.volume_port)
        compute_url = 'http://127.0.0.1:%d/v2.1' % self.compute_port
        self.project_ids.update(register.register(
            conn, {name: (project, roles, self.passwords[name])
                   for name, (project, roles) in USERS.items()},
            [('tether-volume', 'block-storage', volume_url),
             ('tether-volumev3', 'volumev3', volume_url),
             ('tether-compute', 'compute', compute_url),
             ('glance', 'image', self.glance.url)],
            REGION, description='tether integration (%s)' % self.tag))
        self.project_ids['admin'] = conn.identity.find_project(
            'admin', domain_id='default').id
        conn.close()

    def add_project(self, name, role='member'):
        """A new project ``name`` with a user ``name`` of ``role`` in it
        (a cloud of clouds.yaml too); its ID."""
        conn = self.connection('admin')
        identity = conn.identity
        project = identity.create_project(name=name, domain_id='default')
        self.project_ids[name] = project.id
        self.users[name] = (name, [role])
        self.passwords[name] = '%s-%s' % (name, self.tag)
        register.user(identity, name, self.passwords[name], project,
                      [identity.find_role(role)])
        conn.close()
        self._write_clouds_yaml()
        return project.id

    # Clients ----------------------------------------------------------------

    def cloud(self, user):
        """The clouds.yaml entry of ``user``."""
        project = 'admin' if user == 'admin' else self.users[user][0]
        return {
            'auth': {'auth_url': self.keystone.url, 'username': user,
                     'password': self.passwords[user],
                     'project_name': project,
                     'user_domain_name': 'Default',
                     'project_domain_name': 'Default'},
            'region_name': REGION,
            'identity_api_version': 3,
            'interface': 'public',
        }

    def connection(self, user, **kwargs):
        """An openstacksdk connection as ``user`` (a name of USERS, or
        admin)."""
        import openstack
        cloud = self.cloud(user)
        # gunicorn closes a kept-alive connection after 2 idle seconds: a
        # request sent on it as it closes meets a closed connection before
        # the server read it. Send such a request again.
        kwargs.setdefault('connect_retries', 3)
        return openstack.connect(
            auth_type='password', region_name=REGION,
            interface='public', **cloud['auth'], **kwargs)

    def _write_clouds_yaml(self):
        clouds = {'int-' + user: self.cloud(user)
                  for user in ['admin'] + list(self.users)}
        with open(self.clouds_yaml, 'w') as f:
            yaml.safe_dump({'clouds': clouds}, f, default_flow_style=False)

    def cli_env(self, user):
        """The environment of an ``openstack`` CLI acting as ``user``."""
        env = dict(self.env, OS_CLIENT_CONFIG_FILE=self.clouds_yaml,
                   OS_CLOUD='int-' + user)
        env.pop(processes.RUN_VARIABLE)
        return env
