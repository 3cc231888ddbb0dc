"""Handlers of /os-quota-class-sets/{id}: show and update the limits of
a quota class (``default``: the defaults of every project)."""

from tether.api.compute.schemas import quota_class_sets as schema
from tether.api.compute import versions
from tether.api.compute.views import quota_sets as views
from tether.api import fault
from tether.api import microversion
from tether.api import response_types as rt
from tether.api import validation
from tether.api import wsgi
from tether.compute.api import quota_class_sets as quota_class_api
from tether.policies.compute import quota_class_sets as policy


@rt.declare_each(schema.SHOW_RESPONSES)
@validation.query(schema.SHOW_QUERY)
def show_quota_class_set(req):
    req.context.can(policy.SHOW, {})
    class_name = req.urlvars['quota_class']
    values = quota_class_api.get(req.context, class_name)
    return wsgi.json_response(views.quota_class_set(req, values,
                                                    class_name))


@rt.declare_each(schema.UPDATE_RESPONSES)
@validation.body(schema.UPDATE, versions.BASE,
                 microversion.before(versions.QUOTA_CLASS_SERVER_GROUPS))
@validation.body(schema.UPDATE_V2_50, versions.QUOTA_CLASS_SERVER_GROUPS,
                 microversion.before(versions.PERSONALITY_QUOTAS_REMOVED))
@validation.body(schema.UPDATE_V2_57, versions.PERSONALITY_QUOTAS_REMOVED)
def update_quota_class_set(req):
    req.context.can(policy.UPDATE, {})
    class_name = req.urlvars['quota_class']
    if len(class_name) > 255:
        raise fault.HTTPError(400, 'quota_class_name has more than 255 '
                                   'characters.')
    limits = {resource: int(value) for resource, value
              in req.validated['quota_class_set'].items()}
    values = quota_class_api.update(req.context, class_name, limits)
    # As Nova: the limits, without the class's name.
    return wsgi.json_response(views.quota_class_set(req, values))
