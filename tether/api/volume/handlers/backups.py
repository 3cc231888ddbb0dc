"""Handlers of /backups: create, list, show, update (3.9), delete,
restore, export and import of records, and the administrators' actions
(os-reset_status, os-force_delete)."""

from oslo_utils import strutils

from tether.api import listing
from tether.api import microversion
from tether.api import response_types as rt
from tether.api import responses
from tether.api import validation
from tether.api.volume.schemas import backups as schema
from tether.api.volume import versions
from tether.api.volume.views import backups as views
from tether.api import wsgi
from tether.policies.volume import backups as policy
from tether.volume.api import backup_records
from tether.volume.api import backup_restores
from tether.volume.api import backups as backup_api
from tether.volume.api import volumes as volume_api


def load_backup(req, action):
    """The backup of the URL, after the policy check of ``action``."""
    backup = backup_api.get(req.context, req.urlvars['backup_id'])
    req.context.can(action, {'project_id': backup.project_id,
                             'user_id': backup.user_id})
    return backup


def _bool(body, key):
    return strutils.bool_from_string(body.get(key, False), strict=True)


@rt.declare_each(schema.SUMMARY_RESPONSES, 202)
@validation.body(schema.CREATE, versions.BASE,
                 microversion.before(versions.BACKUP_METADATA))
@validation.body(schema.CREATE_V3_43, versions.BACKUP_METADATA,
                 microversion.before(versions.BACKUP_AZ))
@validation.body(schema.CREATE_V3_51, versions.BACKUP_AZ)
def create_backup(req):
    ctx = req.context
    body = req.validated['backup']
    volume = volume_api.get(ctx, body['volume_id'])
    ctx.can(policy.CREATE, {'project_id': volume.project_id,
                            'user_id': volume.user_id})
    backup = backup_api.create(
        ctx, volume.id, name=body.get('name'),
        description=body.get('description'),
        container=body.get('container'),
        incremental=_bool(body, 'incremental'), force=_bool(body, 'force'),
        snapshot_id=body.get('snapshot_id'), metadata=body.get('metadata'),
        availability_zone=body.get('availability_zone'))
    return wsgi.json_response(
        {'backup': views.BackupView(req).summary(backup)}, status=202)


# Cinder's v1 names of two sort keys, which clients still send.
_SORT_ALIASES = {'display_name': 'name',
                 'display_description': 'description'}


def _list(req, detail):
    ctx = req.context
    ctx.can(policy.GET_ALL, {'project_id': ctx.project_id})
    params = req.validated_query
    sort_keys, sort_dirs = listing.parse_sort(
        params, backup_api.SORT_KEYS + tuple(_SORT_ALIASES))
    sort_keys = [_SORT_ALIASES.get(key, key) for key in sort_keys]
    filters = {key: params[key] for key in ('name', 'status', 'volume_id')
               if key in params}
    view = views.BackupView(req)
    return wsgi.json_response(listing.volume_api_page(
        req, 'backups', backup_api, filters,
        view.detail if detail else view.summary, sort_keys, sort_dirs))


@rt.declare_each(schema.LIST_RESPONSES)
@validation.query(schema.LIST_QUERY, versions.BASE,
                  microversion.before(versions.WITH_COUNT))
@validation.query(schema.LIST_QUERY_V3_45, versions.WITH_COUNT)
def list_backups(req):
    return _list(req, detail=False)


@rt.declare_each(schema.LIST_DETAIL_RESPONSES)
@validation.query(schema.LIST_QUERY, versions.BASE,
                  microversion.before(versions.WITH_COUNT))
@validation.query(schema.LIST_QUERY_V3_45, versions.WITH_COUNT)
def list_backups_detail(req):
    return _list(req, detail=True)


@rt.declare_each(schema.SHOW_RESPONSES)
@validation.query(schema.NO_QUERY)
def show_backup(req):
    backup = load_backup(req, policy.GET)
    return wsgi.json_response(
        {'backup': views.BackupView(req).detail(backup)})


@microversion.version_window(versions.BACKUP_UPDATE)
@rt.declare_each(schema.SUMMARY_RESPONSES)
@validation.body(schema.UPDATE, versions.BACKUP_UPDATE,
                 microversion.before(versions.BACKUP_METADATA))
@validation.body(schema.UPDATE_V3_43, versions.BACKUP_METADATA)
def update_backup(req):
    backup = load_backup(req, policy.UPDATE)
    body = req.validated['backup'] or {}
    values = {key: body[key] for key in ('name', 'description')
              if key in body}
    backup = backup_api.update(req.context, backup.id, values,
                               metadata=body.get('metadata'))
    return wsgi.json_response(
        {'backup': views.BackupView(req).summary(backup)})


@responses.declare(None, 202)
@validation.query(schema.NO_QUERY)
def delete_backup(req):
    backup = load_backup(req, policy.DELETE)
    backup_api.delete(req.context, backup.id)
    return wsgi.empty_response(202)


@responses.declare(schema.RESTORE_RESPONSE, 202)
@validation.body(schema.RESTORE)
def restore_backup(req):
    backup = load_backup(req, policy.RESTORE)
    body = req.validated['restore'] or {}
    volume = backup_restores.restore(req.context, backup.id,
                                     volume_id=body.get('volume_id'),
                                     name=body.get('name'))
    return wsgi.json_response(
        {'restore': views.BackupView.restore(backup.id, volume)},
        status=202)


@responses.declare(schema.EXPORT_RESPONSE)
@validation.query(schema.NO_QUERY)
def export_record(req):
    backup = load_backup(req, policy.EXPORT)
    return wsgi.json_response({'backup-record': backup_records.export_record(
        req.context, backup.id)})


@rt.declare_each(schema.SUMMARY_RESPONSES, 201)
@validation.body(schema.IMPORT_RECORD)
def import_record(req):
    ctx = req.context
    ctx.can(policy.IMPORT, {'project_id': ctx.project_id})
    body = req.validated['backup-record']
    backup = backup_records.import_record(ctx, body['backup_service'],
                                          body['backup_url'])
    return wsgi.json_response(
        {'backup': views.BackupView(req).summary(backup)}, status=201)


# Actions ------------------------------------------------------------------

@responses.declare(None, 202)
@validation.body(schema.RESET_STATUS)
def reset_status(req):
    backup = load_backup(req, policy.RESET_STATUS)
    backup_api.reset_status(req.context, backup.id,
                            req.validated['os-reset_status']['status'])
    return wsgi.empty_response(202)


@responses.declare(None, 202)
@validation.body(schema.FORCE_DELETE)
def force_delete(req):
    backup = load_backup(req, policy.FORCE_DELETE)
    req.context.can(policy.DELETE, {'project_id': backup.project_id,
                                    'user_id': backup.user_id})
    backup_api.delete(req.context, backup.id, force=True)
    return wsgi.empty_response(202)


ACTIONS = {
    'os-force_delete': force_delete,
    'os-reset_status': reset_status,
}
