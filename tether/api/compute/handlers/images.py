"""Handlers of /images, the compute API's proxy to the image API (2.1 to
2.35, as Nova; 404 from 2.36): list, detail, show, delete."""

from tether.api.compute.schemas import images as schema
from tether.api.compute import versions
from tether.api.compute.views import images as views
from tether.api import listing
from tether.api import microversion
from tether.api import query
from tether.api import responses
from tether.api import validation
from tether.api import wsgi
from tether.compute.api import images as images_api
from tether.policies.compute import images as policy

served = microversion.version_window(
    versions.BASE, microversion.before(versions.PROXIES_REMOVED))


def _can(req, action):
    req.context.can(action, {'project_id': req.context.project_id})


def _view(req):
    return views.ImageView(req, images_api.root_url(req.context))


def _list(req, action, render):
    _can(req, action)
    params = req.validated_query
    filters = images_api.image_filters(
        params, changes_since=query.iso_time(params, 'changes-since'))
    # No limit (or 0) is the first page of at most osapi_max_limit.
    size = listing.page_size(params) or listing.page_size({})
    found = images_api.list_images(req.context, filters, limit=size,
                                   marker=params.get('marker'))
    view = _view(req)
    body = {'images': [render(view, image) for image in found]}
    links = listing.next_links(req, found, listing.page_size(params),
                               lambda image: image['id'])
    if links:
        body['images_links'] = links
    return wsgi.json_response(body)


@served
@responses.declare(schema.LIST_RESPONSE)
@validation.query(schema.LIST_QUERY)
def list_images(req):
    return _list(req, policy.LIST, views.ImageView.basic)


@served
@responses.declare(schema.DETAIL_RESPONSE)
@validation.query(schema.LIST_QUERY)
def list_images_detail(req):
    return _list(req, policy.DETAIL, views.ImageView.detail)


@served
@responses.declare(schema.SHOW_RESPONSE)
@validation.query(schema.SHOW_QUERY)
def show_image(req):
    _can(req, policy.SHOW)
    image = images_api.get(req.context, req.urlvars['image_id'])
    return wsgi.json_response({'image': _view(req).detail(image)})


@served
@responses.declare(None, 204)
@validation.query(schema.SHOW_QUERY)
def delete_image(req):
    _can(req, policy.DELETE)
    images_api.delete(req.context, req.urlvars['image_id'])
    return wsgi.empty_response(204)
