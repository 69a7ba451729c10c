// The package version recorded in the indexes this code writes (package.json "version"; a test keeps them equal).
export const PACKAGE_VERSION = '0.1.0'
