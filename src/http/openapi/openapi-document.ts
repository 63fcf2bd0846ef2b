import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { completeDocument } from './complete-document';

/** The same document is served at /docs and written to the committed openapi.json (`npm run openapi`). */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Card-key login service')
    .setDescription(
      'Client families (Connect, HTTP V3, SDK v1, legacy), the card-holder portal and the admin API. ' +
        "Every failure carries a catalog code (docs/errors.md) in its family's envelope; the protocol of each family is in docs/protocol.md.",
    )
    .setVersion('1')
    .setLicense('Proprietary', 'https://example.invalid/licence')
    .addServer('/', 'This service')
    .build();
  return completeDocument(
    SwaggerModule.createDocument(app, config, {
      operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
    }),
  );
}
