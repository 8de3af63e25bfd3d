import {
  vehicleChangesInput,
  vehicleDeletedSchema,
  vehicleInput,
  vehicleJobsSchema,
  vehicleListSchema,
  vehicleSearchQuery,
  vehicleViewSchema,
} from '@crm/projections/contract';
import type { AppDeps } from '../deps.ts';
import { expectedRevisionOf, sendRecord } from '../http/etag.ts';
import { access, FeatureOffError, userOf, type ApiContext, type ApiHandler, type ApiRouter, type RouteDoc } from '../http/router.ts';
import { parseInput } from '../http/validation.ts';
import { commandContext } from '../http/command-context.ts';
import {
  addVehicle,
  deleteVehicle,
  findVehicles,
  getVehicle,
  listCustomerVehicles,
  updateVehicle,
  vehicleHistory,
} from './vehicle-service.ts';

const DOCS = {
  customerVehicles: { summary: "A customer's vehicles, newest first", tag: 'vehicles', response: vehicleListSchema },
  create: {
    summary: 'A new vehicle of the customer; the VIN is checked (400 naming the problem) and decoded (ETag: its revision)',
    tag: 'vehicles',
    body: vehicleInput,
    response: vehicleViewSchema,
    status: 201,
    answers: { 409: 'Another vehicle of the shop has the VIN: the answer names it (`vehicle`: id, label, customer)' },
  },
  search: {
    summary: 'Vehicles by whole VIN, its last 6 or 8 characters, or (part of) the plate',
    tag: 'vehicles',
    query: vehicleSearchQuery,
    response: vehicleListSchema,
  },
  show: {
    summary: 'One vehicle: the year and make as typed beside what its VIN decodes to (ETag: its revision)',
    tag: 'vehicles',
    response: vehicleViewSchema,
  },
  update: {
    summary:
      'Change a vehicle: the fields sent (If-Match: the revision the form loaded). A change that would leave year, make, model, VIN and plate all blank, with what is stored, is a 400',
    tag: 'vehicles',
    body: vehicleChangesInput,
    response: vehicleViewSchema,
    answers: { 409: 'A stale If-Match (`current`: the vehicle as it is now), or another vehicle of the shop has the VIN (`vehicle`)' },
  },
  remove: { summary: 'Delete a vehicle (its jobs stay, as history)', tag: 'vehicles', response: vehicleDeletedSchema },
  jobs: {
    summary: 'Everything on the vehicle, newest first: its jobs with their mileage, and its own changes and notes',
    tag: 'vehicles',
    response: vehicleJobsSchema,
  },
} satisfies Record<string, RouteDoc>;

/**
 * Vehicles belong to customers and serve the pipeline (a job is on a vehicle), so they
 * answer while either feature is on; permissions as for customers.
 */
export function registerVehicleRoutes(router: ApiRouter, deps: AppDeps): void {
  const instanceOf = (ctx: ApiContext) => userOf(ctx).instance.id;
  const idOf = (ctx: ApiContext) => ctx.params.id ?? '';
  const commandCtx = (ctx: ApiContext) => {
    const instanceId = instanceOf(ctx);
    return { ...commandContext(ctx, deps, instanceId), instanceId };
  };
  const customersOrPipeline = (ctx: ApiContext) => {
    const { features } = userOf(ctx).instance;
    if (!features.customers && !features.pipeline) throw new FeatureOffError();
  };
  const guarded =
    (handler: ApiHandler): ApiHandler =>
    async (ctx) => {
      customersOrPipeline(ctx);
      await handler(ctx);
    };

  const ofCustomer: ApiHandler = async (ctx) => {
    ctx.body = await listCustomerVehicles(deps, instanceOf(ctx), idOf(ctx));
  };
  const create: ApiHandler = async (ctx) => {
    sendRecord(ctx, await addVehicle(deps, idOf(ctx), ctx.request.body, commandCtx(ctx)), 201);
  };
  const search: ApiHandler = async (ctx) => {
    const { q } = parseInput(vehicleSearchQuery, ctx.query);
    ctx.body = await findVehicles(deps, instanceOf(ctx), q);
  };
  const show: ApiHandler = async (ctx) => {
    sendRecord(ctx, await getVehicle(deps, instanceOf(ctx), idOf(ctx)));
  };
  const update: ApiHandler = async (ctx) => {
    const expectedRevision = expectedRevisionOf(ctx);
    sendRecord(ctx, await updateVehicle(deps, idOf(ctx), ctx.request.body, commandCtx(ctx), expectedRevision));
  };
  const remove: ApiHandler = async (ctx) => {
    ctx.body = await deleteVehicle(deps, idOf(ctx), commandCtx(ctx));
  };
  const jobs: ApiHandler = async (ctx) => {
    ctx.body = await vehicleHistory(deps, instanceOf(ctx), idOf(ctx));
  };

  const read = access.can('canRead');
  const write = access.can('canWrite');
  router.get('/api/:instance/customers/:id/vehicles', read, guarded(ofCustomer), { doc: DOCS.customerVehicles });
  router.post('/api/:instance/customers/:id/vehicles', write, guarded(create), { doc: DOCS.create });
  router.get('/api/:instance/vehicles', read, guarded(search), { doc: DOCS.search });
  router.get('/api/:instance/vehicles/:id', read, guarded(show), { doc: DOCS.show });
  router.put('/api/:instance/vehicles/:id', write, guarded(update), { doc: DOCS.update });
  router.delete('/api/:instance/vehicles/:id', access.can('canDelete'), guarded(remove), { doc: DOCS.remove });
  router.get('/api/:instance/vehicles/:id/jobs', read, guarded(jobs), { doc: DOCS.jobs });
}
