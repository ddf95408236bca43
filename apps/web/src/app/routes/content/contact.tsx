import { ContactPage } from '../../../features/content/components/contact-page.tsx';

export default function ContactRoute() {
  return <ContactPage />;
}
