"""Handler of the compute API's /limits: the absolute limits of the
caller's project (or, for administrators, of ``tenant_id``'s) and what
it uses."""

from tether.api.compute.schemas import limits as schema
from tether.api.compute import versions
from tether.api.compute.views import limits as views
from tether.api import microversion
from tether.api import response_types as rt
from tether.api import validation
from tether.api import wsgi
from tether.compute.api import limits as limits_api
from tether.policies.compute import limits as policy


@rt.declare_each(schema.RESPONSES)
@validation.query(schema.QUERY, versions.BASE,
                  microversion.before(versions.STRICT_QUERY))
@validation.query(schema.QUERY_V2_75, versions.STRICT_QUERY)
def show_limits(req):
    ctx = req.context
    ctx.can(policy.LIMITS, {})
    project_id = ctx.project_id
    given = req.validated_query.get('tenant_id')
    if given is not None:
        # As Nova: whoever names a project, even their own, needs the
        # policy of other projects.
        ctx.can(policy.OTHER_PROJECT)
        project_id = given[0] if isinstance(given, list) else given
    usages = limits_api.get(ctx, project_id)
    return wsgi.json_response(views.limits(req, usages))
