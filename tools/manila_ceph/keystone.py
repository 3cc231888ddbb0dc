"""Manila behind a Keystone: its service user, its catalog entries, the
``[keystone_authtoken]`` of its API, and its tokens for our own calls.

The Keystone is someone else's (the integration deployment's, or one a
developer runs): an administrator of it registers Manila there when
Manila starts, and removes what it registered when Manila stops.

The service user ``manila`` has, in the project ``service``, the roles
``admin`` (the share types are made with its token) and ``service`` (as
the service users of a devstack have). Manila's API is in the catalog as
``sharev2``, the type openstacksdk, tether's ``[share] catalog_info`` and
python-manilaclient all find it by, at ``/v2`` without the project: Manila
serves that from API version 2.60, and every client here asks for more.
"""

import uuid

from keystoneauth1.identity import v3 as ks_v3
from keystoneauth1 import session as ks_session
import openstack
from openstack import config as os_config

USER = 'manila'
PROJECT = 'service'
ROLES = ('admin', 'service')
CATALOG = (('manila', 'sharev2'),)

AUTHTOKEN_CONF = """\
[keystone_authtoken]
www_authenticate_uri = {auth_url}
auth_url = {auth_url}
auth_type = password
project_domain_name = Default
user_domain_name = Default
project_name = {project}
username = {user}
password = {password}
region_name = {region}
service_token_roles_required = true
"""


class Keystone:
    """Manila's place in a Keystone. ``admin_auth`` is the password auth
    of an administrator (openstacksdk's ``auth`` of a cloud: auth_url,
    username, password, project_name, user_domain_name,
    project_domain_name)."""

    def __init__(self, admin_auth, region='RegionOne', log=print):
        self.admin_auth = dict(admin_auth)
        self.auth_url = self.admin_auth['auth_url']
        self.region = region
        self.password = 'manila-' + uuid.uuid4().hex[:12]
        self.log = log
        self.made = []        # (kind, id), to remove at the end
        self._session = None

    @classmethod
    def from_cloud(cls, name, log=print):
        """The administrator of cloud ``name`` of clouds.yaml."""
        cloud = os_config.OpenStackConfig().get_one(cloud=name)
        return cls(cloud.config['auth'], region=cloud.region_name or
                   'RegionOne', log=log)

    def _admin(self):
        return openstack.connect(auth_type='password',
                                 region_name=self.region,
                                 **self.admin_auth)

    def register(self, endpoint):
        """The user ``manila`` and the catalog entries of the API at
        ``endpoint`` (its root URL, ending in /)."""
        conn = self._admin()
        try:
            identity = conn.identity
            project = identity.find_project(PROJECT, domain_id='default')
            if project is None:
                project = identity.create_project(name=PROJECT,
                                                  domain_id='default')
                self.made.append(('project', project.id))
            user = identity.create_user(
                name=USER, password=self.password, domain_id='default',
                default_project_id=project.id)
            self.made.append(('user', user.id))
            for name in ROLES:
                role = identity.find_role(name)
                if role is None:
                    role = identity.create_role(name=name)
                    self.made.append(('role', role.id))
                identity.assign_project_role_to_user(project, user, role)
            for name, service_type in CATALOG:
                service = identity.create_service(
                    name=name, type=service_type,
                    description='Manila (tools/manila_ceph)')
                self.made.append(('service', service.id))
                for interface in ('public', 'internal', 'admin'):
                    identity.create_endpoint(
                        service_id=service.id, interface=interface,
                        url=endpoint + 'v2', region_id=self.region)
        finally:
            conn.close()
        self.log('manila: registered in Keystone at %s' % self.auth_url)

    def unregister(self):
        """Remove what :meth:`register` made (the endpoints go with their
        service); a Keystone that is gone already is fine."""
        if not self.made:
            return
        try:
            conn = self._admin()
            identity = conn.identity
            for kind, id_ in reversed(self.made):
                getattr(identity, 'delete_' + kind)(id_, ignore_missing=True)
            conn.close()
        except Exception as exc:  # noqa: BLE001 - best effort at the end
            self.log('manila: not removed from Keystone: %s' % exc)
        self.made = []

    def authtoken_conf(self):
        return AUTHTOKEN_CONF.format(
            auth_url=self.auth_url.rsplit('/v3', 1)[0] + '/',
            project=PROJECT, user=USER, password=self.password,
            region=self.region)

    def token(self):
        """A token of the user ``manila`` (kept and renewed by
        keystoneauth)."""
        if self._session is None:
            self._session = ks_session.Session(auth=ks_v3.Password(
                auth_url=self.auth_url, username=USER,
                password=self.password, project_name=PROJECT,
                user_domain_name='Default', project_domain_name='Default'))
        return self._session.get_token()
