// Server layering as lint errors (docs/architecture.md once written): routes → service → repository,
// a module calls another module's service and never its repository, plugins/ and db/ import no module.
// Exported as flat-config blocks, spread into eslint.config.js.
export default [];
