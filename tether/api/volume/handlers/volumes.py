"""Handlers of /volumes: create, list, show, update, delete, summary."""


from oslo_utils import strutils

from tether.api import fault
from tether.api import listing
from tether.api import microversion
from tether.api import query
from tether.api import response_types as rt
from tether.api import responses
from tether.api import validation
from tether.api.volume.schemas import volumes as schema
from tether.api.volume import versions
from tether.api.volume.views import volumes as views
from tether.api import wsgi
from tether.policies.volume import volumes as policy
from tether.volume.api import backup_restores
from tether.volume.api import volume_metadata as metadata_api
from tether.volume.api import volumes as volume_api

# Sources of a new volume that tether does not offer (Cinder's
# consistency groups and replicas).
_UNSUPPORTED_SOURCES = ('consistencygroup_id', 'source_replica')
# Those it does; a volume is made of one of them at most. A backup is
# one from 3.47 (as Cinder).
_SOURCES = ('imageRef', 'image_id', 'snapshot_id', 'source_volid')
_SOURCES_V347 = _SOURCES + ('backup_id',)
# The sources a volume takes its size from.
_SIZED_SOURCES = ('snapshot_id', 'source_volid', 'backup_id')


def load_volume(req, action):
    """The volume of the URL, after the policy check of ``action``."""
    volume = volume_api.get(req.context, req.urlvars['volume_id'])
    req.context.can(action, {'project_id': volume.project_id,
                             'user_id': volume.user_id})
    return volume


def _detail(req, volume, extended=True):
    return views.VolumeView(req).detail(volume, extended)


@rt.declare_each(schema.CREATE_RESPONSES, 202)
@validation.body(schema.CREATE)
def create_volume(req):
    ctx = req.context
    ctx.can(policy.CREATE, {'project_id': ctx.project_id,
                            'user_id': ctx.user_id})
    body = req.validated['volume']
    from_backup = microversion.at_least(req, versions.VOLUME_FROM_BACKUP)
    given = [k for k in _UNSUPPORTED_SOURCES if body.get(k) is not None]
    if given:
        raise fault.HTTPError(
            400, 'Creating a volume from %s is not supported by tether; '
                 'create an empty volume, or one from an image '
                 '("imageRef"), a snapshot ("snapshot_id"), a volume '
                 '("source_volid") or a backup ("backup_id", from '
                 'microversion %s).'
                 % (', '.join(given), versions.VOLUME_FROM_BACKUP))
    if body.get('backup_id') is not None and not from_backup:
        raise fault.HTTPError(
            400, 'Creating a volume from a backup ("backup_id") needs '
                 'microversion %s or later; or restore the backup '
                 '(POST /backups/{backup_id}/restore).'
                 % versions.VOLUME_FROM_BACKUP)
    # image_id is Cinder's other name of imageRef.
    sources = sorted({'imageRef' if k == 'image_id' else k
                      for k in (_SOURCES_V347 if from_backup else _SOURCES)
                      if body.get(k) is not None})
    if len(sources) > 1:
        raise fault.HTTPError(
            400, 'A volume is made of one source at most; the request '
                 'names %s.' % ', '.join(sources))
    if body.get('size') is None and not any(body.get(k) for k in
                                            _SIZED_SOURCES):
        raise fault.HTTPError(
            400, "'size' is required, unless the volume is made of a "
                 "snapshot, a volume or a backup (it then has their "
                 "size).")
    if body.get('multiattach') is not None and strutils.bool_from_string(
            body['multiattach']):
        raise fault.HTTPError(
            400, 'The multiattach flag of volume create is deprecated; use '
                 'a volume type with the extra spec multiattach="<is> True".')
    size = None if body.get('size') is None else int(body['size'])
    create = dict(
        name=body.get('name') or body.get('display_name'),
        description=body.get('description') or
        body.get('display_description'),
        metadata=body.get('metadata'),
        volume_type=body.get('volume_type'),
        availability_zone=body.get('availability_zone'),
        # As Cinder: the group of a create from 3.13 only.
        group_id=(body.get('group_id') if microversion.at_least(
            req, versions.GROUP_ID) else None))
    if body.get('backup_id') is not None:
        volume = backup_restores.create_volume(ctx, body['backup_id'], size,
                                               **create)
    else:
        volume = volume_api.create(
            ctx, size,
            # image_id: the name Cinder also reads.
            image_ref=body.get('imageRef') or body.get('image_id'),
            snapshot_id=body.get('snapshot_id'),
            source_volid=body.get('source_volid'), **create)
    # As Cinder: the extended attributes come with a GET only.
    return wsgi.json_response({'volume': _detail(req, volume, False)},
                              status=202)


def _list(req, detail):
    ctx = req.context
    ctx.can(policy.GET_ALL, {'project_id': ctx.project_id})
    params = req.validated_query
    sort_keys, sort_dirs = listing.parse_sort(params, volume_api.SORT_KEYS)
    filters = {}
    for key in ('name', 'status', 'availability_zone', 'user_id',
                'group_id'):
        if key in params:
            filters[key] = params[key]
    for key in ('bootable', 'multiattach'):
        if key in params:
            filters[key] = strutils.bool_from_string(params[key])
    if 'metadata' in params:
        filters['metadata'] = query.string_map(params, 'metadata')
    view = views.VolumeView(req)
    return wsgi.json_response(listing.volume_api_page(
        req, 'volumes', volume_api, filters,
        view.detail if detail else view.summary, sort_keys, sort_dirs))


@rt.declare_each(schema.LIST_RESPONSES)
@validation.query(schema.LIST_QUERY, versions.BASE,
                  microversion.before(versions.WITH_COUNT))
@validation.query(schema.LIST_QUERY_V345, versions.WITH_COUNT)
def list_volumes(req):
    return _list(req, detail=False)


@rt.declare_each(schema.LIST_DETAIL_RESPONSES)
@validation.query(schema.LIST_QUERY, versions.BASE,
                  microversion.before(versions.WITH_COUNT))
@validation.query(schema.LIST_QUERY_V345, versions.WITH_COUNT)
def list_volumes_detail(req):
    return _list(req, detail=True)


@rt.declare_each(schema.SHOW_RESPONSES)
@validation.query(schema.SHOW_QUERY)
def show_volume(req):
    volume = load_volume(req, policy.GET)
    return wsgi.json_response({'volume': _detail(req, volume)})


@rt.declare_each(schema.UPDATE_RESPONSES)
@validation.body(schema.UPDATE)
def update_volume(req):
    load_volume(req, policy.UPDATE)
    body = req.validated['volume']
    values = {}
    for key, alias in (('name', 'display_name'),
                       ('description', 'display_description')):
        if key in body:
            values[key] = body[key]
        elif alias in body:
            values[key] = body[alias]
    volume_id = req.urlvars['volume_id']
    if 'metadata' in body:
        metadata_api.update_metadata(req.context, volume_id,
                                     body['metadata'], delete_others=True)
    volume = volume_api.update(req.context, volume_id, values)
    return wsgi.json_response({'volume': _detail(req, volume, False)})


DELETE_QUERY = {
    'type': 'object',
    'properties': {'cascade': validation.boolean,
                   'force': validation.boolean},
    'additionalProperties': False,
}


@responses.declare(None, 202)
@validation.query(DELETE_QUERY)
def delete_volume(req):
    volume = load_volume(req, policy.DELETE)
    # ``force`` from 3.23 (below, ignored as Cinder ignores it).
    force = (microversion.at_least(req, versions.VOLUME_DELETE_FORCE) and
             strutils.bool_from_string(req.validated_query.get('force',
                                                               False)))
    if force:
        req.context.can(policy.FORCE_DELETE,
                        {'project_id': volume.project_id,
                         'user_id': volume.user_id})
    volume_api.delete(req.context, volume.id, force=force,
                      cascade=strutils.bool_from_string(
                          req.validated_query.get('cascade', False)))
    return wsgi.empty_response(202)


@microversion.version_window(versions.SUMMARY)
@rt.declare_each(schema.SUMMARY_RESPONSES)
@validation.query(schema.SUMMARY_QUERY)
def volume_summary(req):
    ctx = req.context
    ctx.can(policy.SUMMARY, {'project_id': ctx.project_id})
    all_tenants = strutils.bool_from_string(
        req.validated_query.get('all_tenants', False))
    count, total, metadata = volume_api.summary(ctx, all_tenants)
    summary = {'total_size': total, 'total_count': count}
    if microversion.at_least(req, versions.SUMMARY_METADATA):
        summary['metadata'] = metadata
    return wsgi.json_response({'volume-summary': summary})
