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
        bootstrap admin."""
        conn = self.connection('admin')
        identity = conn.identity
        roles = {r.name: r for r in identity.roles()}
        if 'service' not in roles:
            # Keystone's bootstrap makes admin, member and reader, and
            # since 2023.2 service too.
            roles['service'] = identity.create_role(name='service')
        projects = {}
        for project in sorted({p for p, _ in USERS.values()}):
            found = identity.find_project(project, domain_id='default')
            projects[project] = found or identity.create_project(
                name=project, domain_id='default')
            self.project_ids[project] = projects[project].id
        self.project_ids['admin'] = identity.find_project(
            'admin', domain_id='default').id
        for name, (project, role_names) in USERS.items():
            self._create_user(identity, name, projects[project],
                              [roles[r] for r in role_names])
        volume_url = 'http://127.0.0.1:%d/v3/%%(project_id)s' % (
            self.volume_port)
        compute_url = 'http://127.0.0.1:%d/v2.1' % self.compute_port
        for name, service_type, url in (
                ('tether-volume', 'block-storage', volume_url),
                ('tether-volumev3', 'volumev3', volume_url),
                ('tether-compute', 'compute', compute_url),
                ('glance', 'image', self.glance.url)):
            service = identity.create_service(
                name=name, type=service_type,
                description='tether integration (%s)' % self.tag)
            for interface in ('public', 'internal', 'admin'):
                identity.create_endpoint(
                    service_id=service.id, interface=interface, url=url,
                    region_id=REGION)
        conn.close()

    def _create_user(self, identity, name, project, roles):
        user = identity.create_user(
            name=name, password=self.passwords[name], domain_id='default',
            default_project_id=project.id)
        for role in roles:
            identity.assign_project_role_to_user(project, user, role)

    def add_project(self, name, role='member'):
        """A new project ``name`` with a user ``name`` of ``role`` in it
        (a cloud of clouds.yaml too); its ID."""
        conn = self.connection('admin')
        identity = conn.identity
        project = identity.create_project(name=name, domain_id='default')
        self.project_ids[name] = project.id
        self.users[name] = (name, [role])
        self.passwords[name] = '%s-%s' % (name, self.tag)
        self._create_user(identity, name, project,
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
