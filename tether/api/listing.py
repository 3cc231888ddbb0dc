"""Lists of both APIs: the page size a request asks for, the sort order
it names, and the link to the next page."""

from urllib import parse

from oslo_config import cfg
from oslo_utils import strutils

from tether.api import fault

CONF = cfg.CONF


def page_size(params):
    """The ``limit`` of a (validated) query, at most
    ``[DEFAULT] osapi_max_limit``, which is also the default."""
    return min(int(params.get('limit', CONF.osapi_max_limit)),
               CONF.osapi_max_limit)


def parse_sort(params, allowed, default_key='created_at',
               default_dir='desc'):
    """(keys, directions) of ``sort=key[:dir],...`` or of ``sort_key`` and
    ``sort_dir``, as Cinder reads them; 400 for both forms at once or for
    a key that is not ``allowed``."""
    if 'sort' in params:
        if 'sort_key' in params or 'sort_dir' in params:
            raise fault.HTTPError(400, 'The "sort" parameter cannot be '
                                       'combined with sort_key or sort_dir.')
        pairs = [item.partition(':')[::2]
                 for item in params['sort'].split(',')]
    else:
        pairs = [(params.get('sort_key', default_key),
                  params.get('sort_dir', default_dir))]
    keys = [key for key, _ in pairs]
    dirs = [direction or default_dir for _, direction in pairs]
    bad = [key for key in keys if key not in allowed]
    if bad:
        raise fault.HTTPError(
            400, 'Invalid sort key %s; valid keys are %s.'
            % (', '.join(bad), ', '.join(allowed)))
    return keys, dirs


def next_links(req, items, size, marker_of, replace=None, drop=()):
    """``[{'rel': 'next', 'href': ...}]`` when the page of ``items`` is
    full (``size`` of them), else None; a full last page gets a link to
    an empty one.

    The link repeats the request's query with the marker of the last item
    (``marker_of(item)``) and the values of ``replace`` in place of
    theirs, and without the parameters named in ``drop``, as Nova and
    Cinder build it.
    """
    if not size or len(items) < size:
        return None
    replaced = dict(marker=marker_of(items[-1]), **(replace or {}))
    params = [(k, v) for k, v in req.GET.items()
              if k not in replaced and k not in drop]
    params.extend(replaced.items())
    return [{'rel': 'next',
             'href': '%s?%s' % (req.path_url, parse.urlencode(params))}]


def next_links_by_id(req, items, limit):
    """The next links of a volume API list (by ``id`` markers): the
    marker replaces the offset, which would skip rows again, and the page
    size is repeated."""
    size = limit or CONF.osapi_max_limit
    return next_links(req, items, size, lambda item: item.id,
                      replace={'limit': size}, drop=('offset',))


def volume_api_page(req, collection, api, filters, render, sort_keys,
                    sort_dirs, links_key=None):
    """The body of a list of the volume API: one page of
    ``api.get_all`` (the caller's ``filters`` and sort order; the scope
    (``all_tenants``, ``project_id``), marker, limit and offset of the
    validated query), each item rendered, with the link to the next page
    and, when asked (``with_count``), ``api.count`` of every page. The
    link is ``<collection>_links`` unless ``links_key`` names it (Cinder's
    ``group_links`` of ``groups``)."""
    params = req.validated_query
    scope = {'all_tenants': strutils.bool_from_string(
                 params.get('all_tenants', False)),
             'project_id': params.get('project_id')}
    limit = page_size(params)
    items = api.get_all(
        req.context, filters=filters, marker=params.get('marker'),
        limit=limit, sort_keys=sort_keys, sort_dirs=sort_dirs,
        offset=int(params.get('offset', 0)), **scope)
    body = {collection: [render(item) for item in items]}
    links = next_links_by_id(req, items, limit)
    if links:
        body[links_key or collection + '_links'] = links
    if strutils.bool_from_string(params.get('with_count', False)):
        body['count'] = api.count(req.context, filters=filters, **scope)
    return body
