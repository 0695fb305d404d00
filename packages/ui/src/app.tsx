import { Fragment } from 'preact';
import { Layout, PageTitle } from './components/layout.js';
import { BadQuery, NotFound } from './components/states.js';
import { AddressPage } from './pages/address.js';
import { BlockPage } from './pages/block.js';
import { ChartsPage } from './pages/charts.js';
import { HomePage } from './pages/home.js';
import { BlocksPage, TransactionsPage } from './pages/lists.js';
import { SearchPage } from './pages/search.js';
import { TokenPage } from './pages/token.js';
import { TransactionPage } from './pages/transaction.js';
import { ValidatorsPage } from './pages/validators.js';
import { useRoute, type Route } from './router.js';

/** The explorer: the layout around the page the fragment names. Each record's page is keyed by it, so its state starts afresh. */
export function App() {
  const route = useRoute();
  return (
    <Layout route={route}>
      <Page route={route} />
    </Layout>
  );
}

function Page({ route }: { route: Route }) {
  switch (route.name) {
    case 'home':
      return <HomePage />;
    case 'blocks':
      return <BlocksPage />;
    case 'transactions':
      return <TransactionsPage />;
    case 'block':
      return <BlockPage key={route.number} number={route.number} />;
    case 'transaction':
      return <TransactionPage key={route.hash} hash={route.hash} />;
    case 'address':
      return <AddressPage key={route.address} address={route.address} />;
    case 'token':
      return <TokenPage key={route.address} address={route.address} />;
    case 'validators':
      return <ValidatorsPage />;
    case 'charts':
      return <ChartsPage />;
    case 'search':
      return <SearchPage key={route.q} q={route.q} />;
    // Keyed as the records' pages are: otherwise one of these after the other would keep the
    // first one's heading, which then neither takes the focus nor renames the document.
    case 'bad-query':
      return (
        <Fragment key={`bad-query ${route.what} ${route.value}`}>
          <PageTitle>Bad query</PageTitle>
          <BadQuery what={route.what} detail={`“${route.value}”`} />
        </Fragment>
      );
    case 'not-found':
      return (
        <Fragment key={`not-found ${route.path}`}>
          <PageTitle>Page not found</PageTitle>
          <NotFound what={`page at “${route.path}”`} />
        </Fragment>
      );
  }
}
