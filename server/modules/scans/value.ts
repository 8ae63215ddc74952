// The browser reads scanned values the same way offline: one parser, in the contract.
export { parseScanValue, type ScanTarget } from '../../../contract/scan-value.ts'
