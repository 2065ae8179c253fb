import { Model, snakeCaseMappers } from 'objection';

// Tables use snake_case columns; code sees camelCase properties.
export class BaseModel extends Model {
  static override get columnNameMappers() {
    return snakeCaseMappers();
  }
}
