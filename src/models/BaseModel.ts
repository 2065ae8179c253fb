import { Model } from 'objection';

// The shared base of every model. Column names are mapped snake_case <-> camelCase by knex (db.ts).
export class BaseModel extends Model {}
