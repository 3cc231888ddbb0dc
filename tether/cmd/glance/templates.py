"""The files of Glance's configuration that runner.write_config writes."""

# -- the files --------------------------------------------------------------

# Multi-store syntax (enabled_backends) with one file store: the legacy
# single-store options ([glance_store] stores/filesystem_store_datadir)
# are deprecated. The reserved stores (staging, tasks) need a directory
# even with no import method enabled.
GLANCE_API_CONF = """\
[DEFAULT]
debug = {debug}
log_file = {dir}/log/glance-api.log
enabled_backends = file:file
# Clients upload with PUT /v2/images/ID/file: no interoperable import.
enabled_import_methods = []
# The hash Glance records of each image's data (os_hash_algo), which
# tether checks every download against: sha256, which a CPU with SHA
# extensions computes in half the time of Glance's default sha512.
hashing_algorithm = sha256
# Whether images show the URL of their data in the store (direct_url), a
# file: URL here, which tether reads with [image]
# allowed_direct_url_schemes = file instead of downloading the data.
show_image_direct_url = {show_direct_url}
# gunicorn serves, not Glance: bind_host, bind_port and workers would be
# ignored.

[database]
connection = {database_url}

[glance_store]
default_backend = file

[file]
filesystem_store_datadir = {dir}/images/

[os_glance_staging_store]
filesystem_store_datadir = {dir}/staging/

[os_glance_tasks_store]
filesystem_store_datadir = {dir}/tasks/

[oslo_concurrency]
lock_path = {dir}/lock

[paste_deploy]
flavor = {flavor}
config_file = {dir}/glance-api-paste.ini

[oslo_policy]
# Glance's defaults, said out loud: the role-based rules (admin, member,
# reader), no policy file. (oslo.policy 6 has no enforce_scope any more:
# scope is always checked, and the noauth context is project-scoped.)
enforce_new_defaults = True
"""

KEYSTONE_DEFAULTS = {
    'username': 'glance',
    'project_name': 'service',
    'user_domain_name': 'Default',
    'project_domain_name': 'Default',
}

KEYSTONE_AUTHTOKEN = """
[keystone_authtoken]
www_authenticate_uri = {www_authenticate_uri}
auth_url = {auth_url}
auth_type = password
username = {username}
password = {password}
project_name = {project_name}
user_domain_name = {user_domain_name}
project_domain_name = {project_domain_name}
service_type = image
# tether's services call Glance with the caller's token and their own as
# X-Service-Token: only a token with the service role counts as one.
service_token_roles_required = true
"""

# Written, not copied from Glance's etc/: two flavors only, and no cache,
# CORS or profiler filter. Paths below / go through the flavor's
# pipeline; /healthcheck (oslo.middleware) needs no token.
PASTE_INI = """\
[composite:glance-api-{noauth}]
paste.composite_factory = glance.api:root_app_factory
/: api
/healthcheck: healthcheck

[composite:glance-api-keystone]
paste.composite_factory = glance.api:root_app_factory
/: api
/healthcheck: healthcheck

[composite:api]
paste.composite_factory = glance.api:pipeline_factory
{noauth} = http_proxy_to_wsgi versionnegotiation {noauth} context rootapp
keystone = http_proxy_to_wsgi versionnegotiation authtoken context rootapp

[composite:rootapp]
paste.composite_factory = glance.api:root_app_factory
/: apiversions
/v2: apiv2app

[app:apiversions]
paste.app_factory = glance.api.versions:create_resource

[app:apiv2app]
paste.app_factory = glance.api.v2.router:API.factory

[app:healthcheck]
paste.app_factory = oslo_middleware:Healthcheck.app_factory
backends = disable_by_file
disable_by_file_path = {dir}/healthcheck_disable

[filter:versionnegotiation]
paste.filter_factory = \
glance.api.middleware.version_negotiation:VersionNegotiationFilter.factory

[filter:context]
paste.filter_factory = glance.api.middleware.context:ContextMiddleware.factory

[filter:{noauth}]
paste.filter_factory = {module}:filter_factory

[filter:authtoken]
paste.filter_factory = keystonemiddleware.auth_token:filter_factory
delay_auth_decision = true

[filter:http_proxy_to_wsgi]
paste.filter_factory = oslo_middleware:HTTPProxyToWSGI.factory
"""

# gunicorn executes this file in its master process.
GUNICORN_CONF = """\
import ctypes
import os
import signal
import warnings

wsgi_app = 'glance.wsgi.api:application'
bind = '{host}:{port}'
workers = {workers}
# Threads, not the sync worker: one image upload or download would hold a
# sync worker for as long as it streams (and past its timeout).
worker_class = 'gthread'
threads = {threads}
keepalive = 75
graceful_timeout = 10
# glance_noauth (the tether-noauth filter) and glance_sqlite.
pythonpath = '{pythonpath}'
accesslog = '{dir}/log/access.log'
raw_env = ['OS_GLANCE_CONFIG_DIR={dir}']
# Otherwise every gunicorn of the user shares ~/.gunicorn/gunicorn.ctl.
control_socket_disable = True

# futurist imports eventlet (a dependency of Glance) if it is there, and
# eventlet warns on stderr that it is deprecated: Glance under gunicorn
# does not use it.
warnings.filterwarnings('ignore', message=r'\\s*Eventlet is deprecated')



def post_fork(server, worker):
    # In the worker, before it loads Glance.
    if {sqlite}:
        import glance_sqlite
        glance_sqlite.install()


# Die with the process that started this one (runner.start).
_parent = os.environ.get('{parent}')
if _parent:
    PR_SET_PDEATHSIG = 1
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG,
                                            signal.SIGTERM)
    if os.getppid() != int(_parent):
        raise SystemExit('glance: the process that started it has ended')
"""
