/**
 * Times in the console are Taiwan time, whatever the browser's zone: 2026/11/22 14:05, and
 * `datetime-local` inputs read and write Taipei wall-clock time (see @shop/shared/taipei-time).
 */
export { formatTaipeiDateTime as formatTaipei, fromTaipeiInput, toTaipeiInput } from '@shop/shared/taipei-time';
