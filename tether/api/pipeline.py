"""The API pipelines: find api-paste.ini and load an app from it (PasteDeploy).

Both APIs are composites of ``api-paste.ini`` (``[composite:osapi_volume]``
and ``[composite:osapi_compute]``), as in Cinder and Nova. Each lists one
pipeline per ``[DEFAULT]auth_strategy``; ``pipeline_factory`` chooses.

The file is ``[DEFAULT]api_paste_config``: an absolute path, or a name
looked up with ``CONF.find_file`` (beside the configuration files, then in
``~/.tether/``, ``~/``, ``/etc/tether/``, ``/etc/``). When the option is
left at its default and no such file is found, the copy shipped inside
this package is used, so that tether-aio and the tests run from a clean
clone; an option that was set and names no file is an error.
"""

import configparser
import contextvars
import importlib.resources
import os

from oslo_config import cfg
from oslo_log import log as logging
from paste import deploy

from tether import conf as t_conf  # noqa: F401 - [DEFAULT]api_paste_config

LOG = logging.getLogger(__name__)

PASTE_OPTION = 'api_paste_config'
# The copy of etc/tether/api-paste.ini inside the package.
PACKAGED_FILE = 'api-paste.ini'

# The configuration an app is being loaded with: PasteDeploy hands its
# factories strings only, so they read it from here.
_LOADING_CONF = contextvars.ContextVar('tether_paste_conf')


class ConfigurationError(Exception):
    """tether cannot start with this configuration; the message says why."""


def current_conf():
    """The configuration of the app being loaded (``cfg.CONF`` otherwise)."""
    return _LOADING_CONF.get(cfg.CONF)


def packaged_file():
    path = importlib.resources.files(__package__).joinpath(PACKAGED_FILE)
    path = str(path)
    if not os.path.isfile(path):
        raise ConfigurationError(
            'The api-paste.ini shipped with tether is missing from this '
            'installation (%s): reinstall tether, or set '
            '[DEFAULT]%s to the path of an api-paste.ini.'
            % (path, PASTE_OPTION))
    return path


def _option_is_set(conf):
    location = conf.get_location(PASTE_OPTION)
    return location is not None and location.location not in (
        cfg.Locations.opt_default, cfg.Locations.set_default)


def find_paste_file(conf=None):
    """The absolute path of the api-paste.ini to load."""
    conf = conf or cfg.CONF
    name = conf.api_paste_config
    if not name:
        raise ConfigurationError(
            '[DEFAULT]%s is empty: name an api-paste.ini.' % PASTE_OPTION)
    if os.path.isabs(name):
        path = name if os.path.isfile(name) else None
        where = 'no such file'
    else:
        path = conf.find_file(name)
        where = ('not found beside the configuration files nor in '
                 '~/.tether/, ~/, /etc/tether/ or /etc/')
    if path is not None:
        return os.path.abspath(path)
    if _option_is_set(conf):
        raise ConfigurationError(
            '[DEFAULT]%s = %s: %s. Install the api-paste.ini of '
            'etc/tether/ there, or set the option to its path.'
            % (PASTE_OPTION, name, where))
    return packaged_file()


def load_app(name, conf=None):
    """Load the app ``name`` of the api-paste.ini that ``conf`` names."""
    conf = conf or cfg.CONF
    path = find_paste_file(conf)
    LOG.info('Loading the WSGI app %s from %s (auth_strategy = %s)',
             name, path, conf.auth_strategy)
    token = _LOADING_CONF.set(conf)
    try:
        return deploy.loadapp('config:%s' % path, name=name)
    except (LookupError, ImportError, AttributeError,
            configparser.Error) as exc:
        raise ConfigurationError(
            'Cannot load the WSGI app %s from %s: %s: %s'
            % (name, path, type(exc).__name__, exc)) from exc
    finally:
        _LOADING_CONF.reset(token)


def pipeline_factory(loader, global_conf, **local_conf):
    """A composite that is the pipeline named by ``[DEFAULT]auth_strategy``.

    Each option of the composite is a pipeline, as in a
    ``[pipeline:...]`` section: filters, outermost first, then the app.
    """
    strategy = current_conf().auth_strategy
    pipeline = local_conf.get(strategy, '').split()
    if not pipeline:
        raise LookupError(
            'no pipeline for [DEFAULT]auth_strategy = %s in its composite '
            '(it has: %s)' % (strategy, ', '.join(sorted(local_conf))
                              or 'none'))
    filters = [loader.get_filter(filter_name)
               for filter_name in pipeline[:-1]]
    app = loader.get_app(pipeline[-1])
    for wrap in reversed(filters):
        app = wrap(app)
    return app
