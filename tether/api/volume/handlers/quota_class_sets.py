"""Handlers of /os-quota-class-sets/{class_name}: show and update the
limits of a quota class (``default``: every project's defaults)."""

from tether.api import fault
from tether.api import responses
from tether.api import validation
from tether.api.volume.schemas import quota_class_sets as schema
from tether.api import wsgi
from tether.policies.volume import quota_class_sets as policy
from tether.volume.api import quota_class_sets as quota_class_api


@responses.declare(schema.SHOW_RESPONSE)
@validation.query(schema.SHOW_QUERY)
def show_quota_class_set(req):
    req.context.can(policy.GET, {})
    class_name = req.urlvars['class_name']
    values = quota_class_api.get(req.context, class_name)
    return wsgi.json_response({'quota_class_set':
                               dict(values, id=class_name)})


@responses.declare(schema.UPDATE_RESPONSE)
@validation.body(schema.UPDATE)
def update_quota_class_set(req):
    req.context.can(policy.UPDATE, {})
    class_name = req.urlvars['class_name']
    if len(class_name) > 255:
        raise fault.HTTPError(400, 'Invalid input received: '
                                   'quota_class_name has more than 255 '
                                   'characters.')
    limits = {key: int(value) for key, value
              in req.validated['quota_class_set'].items()}
    values = quota_class_api.update(req.context, class_name, limits)
    # As Cinder: the limits, without the class's name.
    return wsgi.json_response({'quota_class_set': values})
