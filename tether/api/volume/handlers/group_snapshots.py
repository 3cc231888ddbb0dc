"""Handlers of /group_snapshots (3.14): create, list, show, delete, and
the action reset_status (3.19)."""

from tether.api import fault
from tether.api import listing
from tether.api import microversion
from tether.api import response_types as rt
from tether.api import responses
from tether.api import validation
from tether.api.volume.schemas import group_snapshots as schema
from tether.api.volume import versions
from tether.api.volume.views import groups as views
from tether.api import wsgi
from tether.objects import fields
from tether.policies.volume import group_snapshots as policy
from tether.volume.api import group_snapshots as group_snapshots_api
from tether.volume.api import groups as groups_api


def load_group_snapshot(req, action):
    group_snapshot = group_snapshots_api.get(
        req.context, req.urlvars['group_snapshot_id'])
    req.context.can(action, {'project_id': group_snapshot.project_id,
                             'user_id': group_snapshot.user_id})
    return group_snapshot


@microversion.version_window(versions.GROUP_SNAPSHOT_ID)
@responses.declare(schema.CREATE_RESPONSE, 202)
@validation.body(schema.CREATE)
def create_group_snapshot(req):
    ctx = req.context
    body = req.validated['group_snapshot']
    group = groups_api.get(ctx, body['group_id'])
    ctx.can(policy.CREATE, {'project_id': group.project_id,
                            'user_id': group.user_id})
    group_snapshot = group_snapshots_api.create(
        ctx, group.id, name=body.get('name'),
        description=body.get('description'))
    return wsgi.json_response(
        {'group_snapshot': views.GroupSnapshotView.created(group_snapshot)},
        status=202)


def _list(req, detail):
    ctx = req.context
    ctx.can(policy.GET_ALL, {'project_id': ctx.project_id})
    params = req.validated_query
    sort_keys, sort_dirs = listing.parse_sort(params,
                                              group_snapshots_api.SORT_KEYS)
    filters = {key: params[key] for key in ('name', 'status', 'group_id')
               if key in params}
    view = views.GroupSnapshotView(req)
    return wsgi.json_response(listing.volume_api_page(
        req, 'group_snapshots', group_snapshots_api, filters,
        view.detail if detail else view.summary, sort_keys, sort_dirs,
        links_key='group_snapshot_links'))


def _list_decorators(fn):
    fn = validation.query(schema.LIST_QUERY_V345, versions.WITH_COUNT)(fn)
    fn = validation.query(schema.LIST_QUERY_V329,
                          versions.GROUP_SNAPSHOT_PAGES,
                          microversion.before(versions.WITH_COUNT))(fn)
    # Below 3.29 Cinder reads no parameter of the query.
    fn = validation.query(validation.IGNORED_QUERY,
                          versions.GROUP_SNAPSHOT_ID,
                          microversion.before(
                              versions.GROUP_SNAPSHOT_PAGES))(fn)
    return microversion.version_window(versions.GROUP_SNAPSHOT_ID)(fn)


@rt.declare_each(schema.LIST_RESPONSES)
@_list_decorators
def list_group_snapshots(req):
    return _list(req, detail=False)


@rt.declare_each(schema.LIST_DETAIL_RESPONSES)
@_list_decorators
def list_group_snapshots_detail(req):
    return _list(req, detail=True)


@microversion.version_window(versions.GROUP_SNAPSHOT_ID)
@rt.declare_each(schema.SHOW_RESPONSES)
@validation.query(schema.NO_QUERY)
def show_group_snapshot(req):
    group_snapshot = load_group_snapshot(req, policy.GET)
    return wsgi.json_response({'group_snapshot': views.GroupSnapshotView(
        req).detail(group_snapshot)})


@microversion.version_window(versions.GROUP_SNAPSHOT_ID)
@responses.declare(None, 202)
@validation.query(schema.NO_QUERY)
def delete_group_snapshot(req):
    group_snapshot = load_group_snapshot(req, policy.DELETE)
    group_snapshots_api.delete(req.context, group_snapshot.id)
    return wsgi.empty_response(202)


@microversion.version_window(versions.GROUP_SNAPSHOT_RESET)
@responses.declare(None, 202)
@validation.body(schema.RESET_STATUS)
def reset_status(req):
    group_snapshot = load_group_snapshot(req, policy.RESET_STATUS)
    status = req.validated['reset_status']['status'].lower()
    if status not in fields.GroupSnapshotStatus.RESETTABLE:
        raise fault.HTTPError(
            400, 'Group snapshot status: %s is invalid, valid statuses '
                 'are: %s.' % (status, ', '.join(
                     fields.GroupSnapshotStatus.RESETTABLE)))
    group_snapshots_api.reset_status(req.context, group_snapshot.id, status)
    return wsgi.empty_response(202)


ACTIONS = {'reset_status': reset_status}
