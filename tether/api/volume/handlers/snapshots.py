"""Handlers of /snapshots: create, list, show, update, delete, the
metadata of a snapshot and its actions (os-reset_status,
os-force_delete, os-update_snapshot_status)."""

from oslo_utils import strutils

from tether.api import fault
from tether.api import listing
from tether.api import microversion
from tether.api import query
from tether.api import response_types as rt
from tether.api import responses
from tether.api import validation
from tether.api.volume.schemas import snapshots as schema
from tether.api.volume import versions
from tether.api.volume.views import snapshots as views
from tether.api import wsgi
from tether.policies.volume import snapshots as policy
from tether.volume.api import snapshots as snapshot_api
from tether.volume import exception


def load_snapshot(req, action):
    """The snapshot of the URL, after the policy check of ``action``."""
    snapshot = snapshot_api.get(req.context, req.urlvars['snapshot_id'])
    req.context.can(action, {'project_id': snapshot.project_id,
                             'user_id': snapshot.user_id})
    return snapshot


# Cinder's v1 names of two sort keys, which clients still send.
_SORT_ALIASES = {'display_name': 'name',
                 'display_description': 'description'}


def _name_and_description(body):
    """The name and description of a body, in either of their spellings
    (the ``display_`` ones are Cinder's v1 names, which clients still
    send)."""
    values = {}
    for key, alias in (('name', 'display_name'),
                       ('description', 'display_description')):
        if key in body:
            values[key] = body[key]
        elif alias in body:
            values[key] = body[alias]
    return values


# Cinder's words for a false force from 3.66.
_FORCE_FALSE = ('Since microversion %s the \'force\' flag is invalid for '
                'this request. For backward compatibility, however, when '
                'the \'force\' flag is passed with a value evaluating to '
                'True, it is silently ignored.' % versions.SNAPSHOT_IN_USE)


def _allow_in_use(req, body):
    """Whether an attached volume may be snapshotted: with ``force``
    below 3.66, always from it (where a false ``force`` is refused)."""
    force = strutils.bool_from_string(body.get('force', False), strict=True)
    if microversion.at_least(req, versions.SNAPSHOT_IN_USE):
        if 'force' in body and not force:
            raise exception.InvalidInput(reason=_FORCE_FALSE)
        return True
    return force


@rt.declare_each(schema.CREATE_RESPONSES, 202)
@validation.body(schema.CREATE)
def create_snapshot(req):
    ctx = req.context
    ctx.can(policy.CREATE, {'project_id': ctx.project_id,
                            'user_id': ctx.user_id})
    body = req.validated['snapshot']
    if body['volume_id'] is None:
        raise exception.VolumeNotFound(volume_id=None)
    snapshot = snapshot_api.create(
        ctx, body['volume_id'], metadata=body.get('metadata'),
        allow_in_use=_allow_in_use(req, body),
        **_name_and_description(body))
    return wsgi.json_response(
        {'snapshot': views.SnapshotView(req).detail(snapshot, False)},
        status=202)


def _list(req, detail):
    ctx = req.context
    ctx.can(policy.GET_ALL, {'project_id': ctx.project_id})
    params = req.validated_query
    sort_keys, sort_dirs = listing.parse_sort(
        params, snapshot_api.SORT_KEYS + tuple(_SORT_ALIASES))
    sort_keys = [_SORT_ALIASES.get(key, key) for key in sort_keys]
    filters = {key: params[key] for key in ('name', 'status', 'volume_id')
               if key in params}
    if 'metadata' in params:
        filters['metadata'] = query.string_map(params, 'metadata')
    view = views.SnapshotView(req)
    return wsgi.json_response(listing.volume_api_page(
        req, 'snapshots', snapshot_api, filters,
        view.detail if detail else view.summary, sort_keys, sort_dirs))


@rt.declare_each(schema.LIST_RESPONSES)
@validation.query(schema.LIST_QUERY, versions.BASE,
                  microversion.before(versions.WITH_COUNT))
@validation.query(schema.LIST_QUERY_V345, versions.WITH_COUNT)
def list_snapshots(req):
    return _list(req, detail=False)


@rt.declare_each(schema.LIST_DETAIL_RESPONSES)
@validation.query(schema.LIST_QUERY, versions.BASE,
                  microversion.before(versions.WITH_COUNT))
@validation.query(schema.LIST_QUERY_V345, versions.WITH_COUNT)
def list_snapshots_detail(req):
    return _list(req, detail=True)


@rt.declare_each(schema.SHOW_RESPONSES)
@validation.query(schema.NO_QUERY)
def show_snapshot(req):
    snapshot = load_snapshot(req, policy.GET)
    return wsgi.json_response(
        {'snapshot': views.SnapshotView(req).detail(snapshot)})


@rt.declare_each(schema.UPDATE_RESPONSES)
@validation.body(schema.UPDATE)
def update_snapshot(req):
    snapshot = load_snapshot(req, policy.UPDATE)
    snapshot = snapshot_api.update(
        req.context, snapshot.id,
        _name_and_description(req.validated['snapshot']))
    return wsgi.json_response(
        {'snapshot': views.SnapshotView(req).detail(snapshot, False)})


@responses.declare(None, 202)
@validation.query(schema.NO_QUERY)
def delete_snapshot(req):
    snapshot = load_snapshot(req, policy.DELETE)
    snapshot_api.delete(req.context, snapshot.id)
    return wsgi.empty_response(202)


# Actions ------------------------------------------------------------------

@responses.declare(None, 202)
@validation.body(schema.RESET_STATUS)
def reset_status(req):
    snapshot = load_snapshot(req, policy.RESET_STATUS)
    snapshot_api.reset_status(req.context, snapshot.id,
                              req.validated['os-reset_status']['status'])
    return wsgi.empty_response(202)


@responses.declare(None, 202)
@validation.body(schema.FORCE_DELETE)
def force_delete(req):
    snapshot = load_snapshot(req, policy.FORCE_DELETE)
    snapshot_api.delete(req.context, snapshot.id, force=True)
    return wsgi.empty_response(202)


@responses.declare(None, 202)
@validation.body(schema.UPDATE_STATUS)
def update_snapshot_status(req):
    snapshot = load_snapshot(req, policy.UPDATE_STATUS)
    body = req.validated['os-update_snapshot_status']
    snapshot_api.update_status(req.context, snapshot.id, body['status'],
                               body.get('progress'))
    return wsgi.empty_response(202)


ACTIONS = {
    'os-force_delete': force_delete,
    'os-reset_status': reset_status,
    'os-update_snapshot_status': update_snapshot_status,
}


def find_snapshot(req, name):
    """Before the 400 of an action tether does not serve: Cinder's
    os-unmanage on a snapshot the caller cannot see is a 404."""
    if name == 'os-unmanage':
        snapshot_api.get(req.context, req.urlvars['snapshot_id'])


# Metadata -----------------------------------------------------------------

@responses.declare(schema.METADATA_RESPONSE)
@validation.query(schema.NO_QUERY)
def list_metadata(req):
    snapshot = load_snapshot(req, policy.GET_METADATA)
    return wsgi.json_response({'metadata': dict(snapshot.metadata)})


@responses.declare(schema.METADATA_RESPONSE)
@validation.body(schema.METADATA)
def create_metadata(req):
    snapshot = load_snapshot(req, policy.UPDATE_METADATA)
    metadata = snapshot_api.update_metadata(req.context, snapshot.id,
                                            req.validated['metadata'])
    return wsgi.json_response({'metadata': metadata})


@responses.declare(schema.METADATA_RESPONSE)
@validation.body(schema.METADATA)
def replace_metadata(req):
    snapshot = load_snapshot(req, policy.UPDATE_METADATA)
    metadata = snapshot_api.update_metadata(
        req.context, snapshot.id, req.validated['metadata'],
        delete_others=True)
    return wsgi.json_response({'metadata': metadata})


@responses.declare(schema.META_ITEM_RESPONSE)
@validation.query(schema.NO_QUERY)
def show_metadata_item(req):
    snapshot = load_snapshot(req, policy.GET_METADATA)
    key = req.urlvars['key']
    if key not in snapshot.metadata:
        raise exception.SnapshotMetadataNotFound(snapshot_id=snapshot.id,
                                                 key=key)
    return wsgi.json_response({'meta': {key: snapshot.metadata[key]}})


@responses.declare(schema.META_ITEM_RESPONSE)
@validation.body(schema.META_ITEM)
def update_metadata_item(req):
    snapshot = load_snapshot(req, policy.UPDATE_METADATA)
    key = req.urlvars['key']
    meta = req.validated['meta']
    if key not in meta:
        raise fault.HTTPError(400, 'The key in the body (%s) differs from '
                                   'the key in the URL (%s).'
                              % (next(iter(meta)), key))
    snapshot_api.update_metadata(req.context, snapshot.id, meta)
    return wsgi.json_response({'meta': meta})


@responses.declare(None, 200)
@validation.query(schema.NO_QUERY)
def delete_metadata_item(req):
    snapshot = load_snapshot(req, policy.DELETE_METADATA)
    snapshot_api.delete_metadata(req.context, snapshot.id,
                                 req.urlvars['key'])
    return wsgi.empty_response(200)
