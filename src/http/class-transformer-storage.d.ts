// class-transformer's metadata storage is only reachable by its CommonJS path (as @nestjs/mapped-types
// reaches it), whose types the package ships elsewhere.
declare module 'class-transformer/cjs/storage' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage';
}
