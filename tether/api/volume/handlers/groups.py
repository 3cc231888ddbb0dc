"""Handlers of /groups (3.13): create, list, show, update, and the
actions delete, reset_status (3.20) and create-from-src (3.14, on
/groups/action)."""

from oslo_utils import strutils

from tether.api import fault
from tether.api import listing
from tether.api import microversion
from tether.api import response_types as rt
from tether.api import responses
from tether.api import validation
from tether.api.volume.schemas import groups as schema
from tether.api.volume import versions
from tether.api.volume.views import groups as views
from tether.api import wsgi
from tether.objects import fields
from tether.policies.volume import groups as policy
from tether.volume.api import group_sources
from tether.volume.api import groups as groups_api


def _target(group):
    return {'project_id': group.project_id, 'user_id': group.user_id}


def load_group(req, action):
    """The group of the URL, after the policy check of ``action``."""
    group = groups_api.get(req.context, req.urlvars['group_id'])
    req.context.can(action, _target(group))
    return group


def _strip(value):
    # As Cinder: names and descriptions lose their outer white space.
    return value.strip() if value else value


def _created(group):
    return wsgi.json_response({'group': views.GroupView.summary(group)},
                              status=202)


@microversion.version_window(versions.GROUP_ID)
@responses.declare(schema.CREATE_RESPONSE, 202)
@validation.body(schema.CREATE)
def create_group(req):
    ctx = req.context
    ctx.can(policy.CREATE, {'project_id': ctx.project_id,
                            'user_id': ctx.user_id})
    body = req.validated['group']
    group = groups_api.create(
        ctx, _strip(body.get('name')), body['group_type'],
        body['volume_types'], description=_strip(body.get('description')),
        availability_zone=body.get('availability_zone'))
    return _created(group)


def _list(req, detail):
    ctx = req.context
    ctx.can(policy.GET_ALL, {'project_id': ctx.project_id})
    params = req.validated_query
    sort_keys, sort_dirs = listing.parse_sort(params, groups_api.SORT_KEYS)
    filters = {key: params[key] for key in ('name',) if key in params}
    view = views.GroupView(req)
    return wsgi.json_response(listing.volume_api_page(
        req, 'groups', groups_api, filters,
        view.detail if detail else view.summary, sort_keys, sort_dirs,
        links_key='group_links'))


@microversion.version_window(versions.GROUP_ID)
@rt.declare_each(schema.LIST_RESPONSES)
@validation.query(schema.LIST_QUERY, versions.GROUP_ID,
                  microversion.before(versions.GROUP_VOLUMES))
@validation.query(schema.LIST_QUERY_V325, versions.GROUP_VOLUMES)
def list_groups(req):
    return _list(req, detail=False)


@microversion.version_window(versions.GROUP_ID)
@rt.declare_each(schema.LIST_DETAIL_RESPONSES)
@validation.query(schema.LIST_QUERY, versions.GROUP_ID,
                  microversion.before(versions.GROUP_VOLUMES))
@validation.query(schema.LIST_QUERY_V325, versions.GROUP_VOLUMES)
def list_groups_detail(req):
    return _list(req, detail=True)


@microversion.version_window(versions.GROUP_ID)
@rt.declare_each(schema.SHOW_RESPONSES)
@validation.query(schema.NO_QUERY, versions.GROUP_ID,
                  microversion.before(versions.GROUP_VOLUMES))
@validation.query(schema.SHOW_QUERY_V325, versions.GROUP_VOLUMES)
def show_group(req):
    group = load_group(req, policy.GET)
    return wsgi.json_response({'group': views.GroupView(req).detail(group)})


@microversion.version_window(versions.GROUP_ID)
@responses.declare(None, 202)
@validation.body(schema.UPDATE)
def update_group(req):
    group = load_group(req, policy.UPDATE)
    body = req.validated['group']
    groups_api.update(req.context, group.id, name=_strip(body.get('name')),
                      description=_strip(body.get('description')),
                      add_volumes=body.get('add_volumes'),
                      remove_volumes=body.get('remove_volumes'))
    return wsgi.empty_response(202)


# Actions ------------------------------------------------------------------

@microversion.version_window(versions.GROUP_ID)
@responses.declare(None, 202)
@validation.body(schema.DELETE)
def delete_group(req):
    group = load_group(req, policy.DELETE)
    body = req.validated['delete'] or {}
    groups_api.delete(req.context, group.id, strutils.bool_from_string(
        body.get('delete-volumes', False), strict=True))
    return wsgi.empty_response(202)


@microversion.version_window(versions.GROUP_RESET)
@responses.declare(None, 202)
@validation.body(schema.RESET_STATUS)
def reset_status(req):
    group = load_group(req, policy.RESET_STATUS)
    status = req.validated['reset_status']['status'].lower()
    if status not in fields.GroupStatus.RESETTABLE:
        raise fault.HTTPError(
            400, 'Group status: %s is invalid, valid statuses are: %s.'
            % (status, ', '.join(fields.GroupStatus.RESETTABLE)))
    groups_api.reset_status(req.context, group.id, status)
    return wsgi.empty_response(202)


ACTIONS = {
    'delete': delete_group,
    'reset_status': reset_status,
}

# Cinder's group actions that tether does not serve (replication).
CINDER_ONLY = frozenset(('enable_replication', 'disable_replication',
                         'failover_replication', 'list_replication_targets'))


def find_group(req, name):
    """Before the 400 of an action tether does not serve: as Cinder
    looks the group up for one of its actions, a 404 for a group the
    caller cannot see."""
    if name in CINDER_ONLY:
        groups_api.get(req.context, req.urlvars['group_id'])


@microversion.version_window(versions.GROUP_SNAPSHOT_ID)
@responses.declare(schema.CREATE_RESPONSE, 202)
@validation.body(schema.CREATE_FROM_SRC)
def create_group_from_src(req):
    ctx = req.context
    ctx.can(policy.CREATE, {'project_id': ctx.project_id,
                            'user_id': ctx.user_id})
    body = req.validated['create-from-src']
    given = [k for k in ('group_snapshot_id', 'source_group_id')
             if body.get(k) is not None]
    if len(given) != 1:
        raise fault.HTTPError(
            400, 'Invalid input for field/attribute create-from-src: give '
                 'exactly one of group_snapshot_id and source_group_id (it '
                 'names %s).' % (' and '.join(given) or 'neither'))
    group = group_sources.create_from_src(
        ctx, name=_strip(body.get('name')),
        description=_strip(body.get('description')),
        group_snapshot_id=body.get('group_snapshot_id'),
        source_group_id=body.get('source_group_id'))
    return _created(group)


COLLECTION_ACTIONS = {'create-from-src': create_group_from_src}
