// Web layering as lint errors: feature ↛ feature, shared code ↛ app code, components ↛ features,
// shop ↛ console. Exported as flat-config blocks, spread into eslint.config.js.
export default [];
