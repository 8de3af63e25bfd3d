export { durationChoices, JobFields, type JobFieldKey, type JobFieldsProps, type JobFieldValues } from './job-fields';
export { fillWholePhone } from './whole-phone';
